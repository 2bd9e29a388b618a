const path = require('node:path');
const { task, src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also needs the icons and codex files beside the built nodes.
task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'nodes/**/*.node.json'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist'))),
);
