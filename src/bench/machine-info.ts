/** Where the bench ran: CPU count and model, Node version, platform. */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import type { MachineInfo } from './bench-report.ts';

/** The machine this process runs on; the CPU model from /proc/cpuinfo where there is one. */
export function machineInfo(): MachineInfo {
  return {
    nproc: availableParallelism(),
    cpuModel: cpuModel(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) return match[1].trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}
