/** Output sinks for CLI commands, so tests can capture them without spawning a process. */
import { terminalText } from "./terminal";
export interface Sink {
  /** Resolves once the chunk is accepted (honours back-pressure on real streams). */
  write(chunk: string): Promise<void> | void;
}

export interface CommandIo {
  readonly stdout: Sink;
  readonly stderr: Sink;
}

function streamSink(stream: NodeJS.WriteStream, filter: (chunk: string) => string = (c) => c): Sink {
  return {
    write(chunk) {
      if (stream.write(filter(chunk))) return;
      return new Promise<void>((resolve) => stream.once("drain", () => resolve()));
    },
  };
}

/** Characters gathered before one write to a sink: a big file is then not one write per output line. */
export const LINE_BATCH_CHARS = 64 * 1024;

/** Writes lines to `sink` in batches of about LINE_BATCH_CHARS; `flush` writes what is left. */
export function lineBatcher(sink: Sink): { line(text: string): Promise<void>; flush(): Promise<void> } {
  let pending = "";
  const flush = async () => {
    if (pending === "") return;
    const chunk = pending;
    pending = "";
    await sink.write(chunk);
  };
  return {
    async line(text) {
      pending += `${text}\n`;
      if (pending.length >= LINE_BATCH_CHARS) await flush();
    },
    flush,
  };
}

export function nodeIo(): CommandIo {
  // A reader that closes the pipe early (`| head`) is not an error: stop quietly, as Unix tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(0);
      throw error;
    });
  }
  // stderr carries only human text (summaries, warnings, errors): a safety net so that no file-controlled
  // control sequence reaches the terminal even where a print site forgot to escape (cli/terminal.ts).
  return {
    stdout: streamSink(process.stdout),
    stderr: streamSink(process.stderr, (chunk) => terminalText(chunk, true)),
  };
}

/** Writes nowhere: a worker thread rebuilds a command's sources, whose notes the main thread has printed. */
export const silentIo: CommandIo = { stdout: { write() {} }, stderr: { write() {} } };

/** An in-memory CommandIo for tests. */
export function memoryIo(): CommandIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: {
      write: (c) => {
        out += c;
      },
    },
    stderr: {
      write: (c) => {
        err += c;
      },
    },
    out: () => out,
    err: () => err,
  };
}
