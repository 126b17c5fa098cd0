/**
 * Containment of plugin code on this thread, for as long as a check (or a worker) runs: its
 * stdout and stderr kept (`handler-output.ts`), its escapes trapped (`escapes.ts`). Installs
 * nest: the first turns both on, the last release turns them off.
 */
import { trapEscapes } from './escapes.ts';
import { captureOutput } from './handler-output.ts';

/** Contains plugin code on this thread until the returned function is called. */
export function contain(): () => void {
  const releaseOutput = captureOutput();
  const releaseEscapes = trapEscapes();
  return () => {
    releaseEscapes();
    releaseOutput();
  };
}
