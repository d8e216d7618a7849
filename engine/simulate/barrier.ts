/** The words of a partitioned replay's control block (an Int32Array over shared memory). */
export const GEN = 0;
export const DONE = 1;
export const DAY = 2;
export const HEAD = 3;
export const FAILED = 4;
/** Each worker's running count of estimated-demand days, from here on. */
export const FIRST_SLOT = 5;
