/** Longest record ID accepted from input; no record id is this long, and longer ones make addresses servers refuse. */
export const MAX_ID_LENGTH = 1000;
