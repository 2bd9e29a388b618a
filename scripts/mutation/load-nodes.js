/**
 * Loads the package's nodes and credential before a suite's tests start (setupFilesAfterEnv of the mutation run).
 * The harness loads them lazily, inside whichever test first runs a workflow, so what a module computes when it
 * loads (parameter descriptions, constants) would be counted as covered by that one test. Loaded here, that code
 * is what Stryker calls static, whatever the order of tests, and is reported apart (stryker.config.mjs).
 */
require('../../nodes/Prospecting/Prospecting.node');
require('../../nodes/Prospecting/ProspectingTrigger.node');
require('../../nodes/Prospecting/ProspectingPollTrigger.node');
require('../../credentials/ProspectingApi.credentials');
