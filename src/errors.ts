/**
 * The failures a user can fix, kept apart from bugs so that a caller can tell them apart with
 * `instanceof` and the command line can word them and choose the exit code (2 for a bad option, 1 for
 * bad input) without a stack trace. The library throws them; it never exits.
 */

/** A bad option or argument (of a function of the library or of the command line): the message names it. */
export class OptionsError extends Error {
  override name = 'OptionsError';
}

/** Another build holds the output's lock: this one changed nothing, and can simply run again later. */
export class BuildBusyError extends Error {
  override name = 'BuildBusyError';
}

/** Where a problem was found in the input: file, line (1-based), array index, field. */
export interface InputProblem {
  file: string;
  line?: number;
  index?: number;
  field?: string;
  message: string;
}

export function describeProblem(problem: InputProblem): string {
  let where = problem.file;
  if (problem.line !== undefined) where += `:${problem.line}`;
  if (problem.index !== undefined) where += ` (record ${problem.index} of the array)`;
  const field = problem.field === undefined ? '' : `field "${problem.field}": `;
  return `${where}: ${field}${problem.message}`;
}

/** Bad input records or files; carries every problem found, up to the reporting limit. */
export class InputError extends Error {
  override name = 'InputError';

  constructor(
    readonly problems: readonly InputProblem[],
    readonly truncated = false,
  ) {
    const lines = problems.map(describeProblem);
    if (truncated) lines.push('(more problems were not listed)');
    super(lines.join('\n'));
  }
}
