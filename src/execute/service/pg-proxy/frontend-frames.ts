/**
 * Frames of the PostgreSQL frontend (client → server) protocol, and the few messages the proxy
 * reads inside them. The frontend side is small: a connection opens with untyped messages (an
 * int32 length, then an int32 code: SSLRequest, GSSENCRequest, CancelRequest or the startup
 * message), then every message is a type byte and an int32 length that counts itself.
 * `pg-protocol` parses the backend side and writes frontend messages, but has no frontend
 * parser, hence this file. Pure: bytes in, frames and values out.
 */

/** The code of an SSLRequest, GSSENCRequest and CancelRequest (PostgreSQL's protocol docs). */
export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;

/** The largest message PostgreSQL itself accepts (1 GB - 1); anything longer is a broken stream. */
const MESSAGE_BYTES_MAX = 0x3fffffff;

/** One whole frontend message, with its bytes as sent (`type` is `''` for an untyped one). */
export interface FrontendFrame {
  readonly type: string;
  /** The whole message, type byte and length included: what is forwarded. */
  readonly bytes: Buffer;
  /** The message's body, after the type byte and length. */
  readonly body: Buffer;
}

/** Thrown when the bytes cannot be a frontend message stream. */
export class FrameError extends Error {}

/**
 * Cuts a byte stream into frontend messages. `untyped` says whether the next message has no type
 * byte (the start of a connection, and again after an SSLRequest answered 'N').
 */
export class FrontendFramer {
  private pending: Buffer = Buffer.alloc(0);
  untyped = true;

  /** Adds `chunk` and returns every message now whole, in order. */
  push(chunk: Buffer): FrontendFrame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: FrontendFrame[] = [];
    for (;;) {
      const frame = this.next();
      if (!frame) return frames;
      frames.push(frame);
    }
  }

  private next(): FrontendFrame | undefined {
    const head = this.untyped ? 0 : 1;
    if (this.pending.length < head + 4) return undefined;
    const length = this.pending.readInt32BE(head);
    if (length < 4 || length > MESSAGE_BYTES_MAX) {
      throw new FrameError(`a frontend message claims ${length} bytes`);
    }
    const total = head + length;
    if (this.pending.length < total) return undefined;
    const bytes = this.pending.subarray(0, total);
    this.pending = this.pending.subarray(total);
    const type = this.untyped ? '' : String.fromCharCode(bytes[0] as number);
    // Only a startup message ends the untyped phase; SSL/GSS requests are followed by another.
    if (this.untyped && length >= 8) {
      const code = bytes.readInt32BE(4);
      if (code !== SSL_REQUEST_CODE && code !== GSSENC_REQUEST_CODE) this.untyped = false;
    }
    return { type, bytes, body: bytes.subarray(head + 4) };
  }
}

/** The code of an untyped message (protocol version for a startup message). */
export function untypedCode(frame: FrontendFrame): number {
  return frame.body.length >= 4 ? frame.body.readInt32BE(0) : 0;
}

/** Reads NUL-terminated strings and integers from a message body. */
class BodyReader {
  private at = 0;
  constructor(private readonly body: Buffer) {}

  cstring(): string {
    const end = this.body.indexOf(0, this.at);
    if (end < 0) throw new FrameError('a frontend message string has no terminator');
    const text = this.body.toString('utf8', this.at, end);
    this.at = end + 1;
    return text;
  }

  int16(): number {
    const value = this.body.readInt16BE(this.at);
    this.at += 2;
    return value;
  }

  int32(): number {
    const value = this.body.readInt32BE(this.at);
    this.at += 4;
    return value;
  }

  bytes(n: number): Buffer {
    const value = this.body.subarray(this.at, this.at + n);
    this.at += n;
    return value;
  }
}

/** The SQL of a simple Query ('Q') message. */
export function queryText(frame: FrontendFrame): string {
  return new BodyReader(frame.body).cstring();
}

/** A Parse ('P') message: the prepared statement's name (`''` for the unnamed one) and its SQL. */
export function parseMessage(frame: FrontendFrame): {
  readonly name: string;
  readonly text: string;
} {
  const reader = new BodyReader(frame.body);
  const name = reader.cstring();
  return { name, text: reader.cstring() };
}

/** A bound parameter: text-format values as strings, binary ones as bytes, NULL as `null`. */
export type BoundValue = string | Buffer | null;

/** A Bind ('B') message: the prepared statement it runs and its parameter values. */
export function bindMessage(frame: FrontendFrame): {
  readonly statement: string;
  readonly values: readonly BoundValue[];
} {
  const reader = new BodyReader(frame.body);
  reader.cstring(); // the portal
  const statement = reader.cstring();
  const formats: number[] = [];
  const formatCount = reader.int16();
  for (let i = 0; i < formatCount; i++) formats.push(reader.int16());
  const values: BoundValue[] = [];
  const valueCount = reader.int16();
  for (let i = 0; i < valueCount; i++) {
    const length = reader.int32();
    if (length < 0) {
      values.push(null);
      continue;
    }
    const bytes = reader.bytes(length);
    // No codes: all text; one code: it applies to every parameter; else one per parameter.
    const format = formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : formats[i];
    values.push(format === 1 ? Buffer.from(bytes) : bytes.toString('utf8'));
  }
  return { statement, values };
}
