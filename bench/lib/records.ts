/** Duplicates and gaps of a walk's output against the records the service holds. */
export interface RecordCheck {
	returned: number;
	unique: number;
	duplicates: number;
	/** Records the service holds that the walk did not return. */
	gaps: number;
	/** Returned ids the service does not hold (should be 0). */
	unknown: number;
}

export function checkRecords(returnedIds: string[], expectedIds: Iterable<string>): RecordCheck {
	const expected = new Set(expectedIds);
	const seen = new Set<string>();
	let duplicates = 0;
	let unknown = 0;
	for (const id of returnedIds) {
		if (seen.has(id)) duplicates++;
		else {
			seen.add(id);
			if (!expected.has(id)) unknown++;
		}
	}
	let gaps = 0;
	for (const id of expected) if (!seen.has(id)) gaps++;
	return { returned: returnedIds.length, unique: seen.size, duplicates, gaps, unknown };
}

/** Leads created per input item, from the names the bulk create gave them (`<tag> <index>`). */
export interface CreateCheck {
	items: number;
	created: number;
	itemsCreatedOnce: number;
	itemsCreatedTwiceOrMore: number;
	itemsMissing: number;
	extraLeads: number;
}

export function checkCreates(nameCounts: Record<string, number>, tag: string, items: number): CreateCheck {
	let created = 0;
	let once = 0;
	let more = 0;
	let missing = 0;
	let extra = 0;
	for (const count of Object.values(nameCounts)) created += count;
	for (let i = 0; i < items; i++) {
		const count = nameCounts[`${tag} ${i}`] ?? 0;
		if (count === 0) missing++;
		else if (count === 1) once++;
		else {
			more++;
			extra += count - 1;
		}
	}
	return {
		items,
		created,
		itemsCreatedOnce: once,
		itemsCreatedTwiceOrMore: more,
		itemsMissing: missing,
		extraLeads: extra,
	};
}
