/**
 * The committed sample `samples/demo`: the flags it was generated with. samples/README.md quotes DEMO_COMMAND and
 * the test regenerates the folder from DEMO_ARGS, so the committed copy cannot drift from the generator.
 */
export const DEMO_DIR = 'samples/demo';
export const DEMO_ARGS = [
  '--seed',
  '1',
  '--stores',
  '6',
  '--skus',
  '250',
  '--days',
  '730',
  '--start',
  '2024-01-01',
] as const;
export const DEMO_COMMAND = `npx tsx samples/generate.ts --out ${DEMO_DIR} ${DEMO_ARGS.join(' ')}`;
