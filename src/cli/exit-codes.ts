/**
 * The CLI's exit codes, the contract CI scripts rely on. `--help` of every command lists them.
 */

/**
 * 0: everything held; 1: a counterexample was found (or a mutant survived; `replay`: reproduced);
 * 2: bad usage or an unfit plugin; 3: `replay` only, a case found on real threads that neither
 * the schedule search nor a run on real threads showed failing: not reproduced, which is not
 * "fixed" (a CI gate that waits for a fix should wait for 0); 130 and 143: stopped by SIGINT or
 * SIGTERM before a verdict (128 + the signal).
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  notReproduced: 3,
  interrupted: 130,
  terminated: 143,
} as const;

/** One of the exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The help text block that explains the exit codes. */
export const EXIT_CODES_HELP = `Exit codes:
  0  everything held (replay: held, an exact replay passed)
  1  a counterexample was found (mutants: a mutant survived or the reference failed;
     replay: the case failed again, reproduced)
  2  bad usage, a bad flag value, or a handler that cannot be loaded or does not fit the
     plugin interface; one line "receiptcheck: E_CODE: message" on stderr
     (add --verbose for the stack)
  3  replay only: not reproduced in N schedules, a case found on real threads that did not
     fail again within the search; not proof of a fix
  130, 143  stopped by Ctrl-C (SIGINT) or SIGTERM before a verdict: "interrupted" on stderr,
     workers stopped and temp files removed`;
