/**
 * The lines a command leaves out, said on stderr a line each, except that consecutive lines left out for the
 * same reason are said once: a Gym folder's file of verifier records (no response on any line) gave 114
 * identical lines that buried the answer.
 */
export class LeftOutLines {
  private run: { where: string; first: number; last: number; message: string } | null = null;

  constructor(private readonly write: (text: string) => unknown) {}

  /** Line `line` is left out: of a folder's `file` (its path, which the line names), or of the single FILE (null). */
  async add(file: string | null, line: number, message: string): Promise<void> {
    const where = file === null ? "" : `${file} `;
    const run = this.run;
    if (run !== null && run.where === where && run.message === message && line === run.last + 1) {
      run.last = line;
      return;
    }
    await this.flush();
    this.run = { where, first: line, last: line, message };
  }

  /** Says the pending run; before anything else goes to stderr, and at the end (a failed read's too). */
  async flush(): Promise<void> {
    const run = this.run;
    if (run === null) return;
    this.run = null;
    const lines = run.first === run.last ? `line ${run.first}` : `lines ${run.first}-${run.last}`;
    await this.write(`${run.where}${lines}: ${run.message} (left out)\n`);
  }
}
