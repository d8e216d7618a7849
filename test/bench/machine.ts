/** The machine a benchmark ran on, printed beside its figures: absolute times move with it, ratios less so. */
import { availableParallelism, cpus, totalmem } from 'node:os';

export function machine(): string {
  const cpu = cpus()[0];
  return (
    `machine: ${availableParallelism()} cores, ${cpu?.model ?? 'unknown CPU'}` +
    (cpu?.speed ? ` ${(cpu.speed / 1000).toFixed(2)} GHz` : '') +
    `, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.versions.node}`
  );
}
