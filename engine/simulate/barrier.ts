/** The words of a partitioned replay's control block (an Int32Array over shared memory). */
export const GEN = 0;
export const DONE = 1;
export const DAY = 2;
export const HEAD = 3;
export const FAILED = 4;
export const CONTROL_WORDS = 5;
