/**
 * The server's side of the wire, cut into whole messages so the proxy can forward each one as it
 * came or, for an error its owner answers differently, as another: a message is a type byte, then
 * its length (four bytes, counting themselves), then its body. Pure: bytes in, frames out.
 */

/** Cuts the server's bytes into whole messages, however the socket split them. */
export class BackendFramer {
  private pending: Buffer = Buffer.alloc(0);

  /** The whole messages `chunk` completes, in order; a partial one waits for the next chunk. */
  push(chunk: Buffer): Buffer[] {
    const bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    let at = 0;
    while (bytes.length - at >= 5) {
      const end = at + 1 + bytes.readInt32BE(at + 1);
      if (end > bytes.length) break;
      frames.push(bytes.subarray(at, end));
      at = end;
    }
    this.pending = bytes.subarray(at);
    return frames;
  }
}

/** The fields of an ErrorResponse the proxy writes in place of the server's. */
export interface ErrorFields {
  readonly code: string;
  readonly message: string;
  readonly detail?: string;
}

/** An ErrorResponse message (severity ERROR) carrying `fields`. */
export function errorResponse(fields: ErrorFields): Buffer {
  const parts: [string, string][] = [
    ['S', 'ERROR'],
    ['V', 'ERROR'],
    ['C', fields.code],
    ['M', fields.message],
  ];
  if (fields.detail !== undefined) parts.push(['D', fields.detail]);
  const body = Buffer.concat([
    ...parts.map(([type, value]) => Buffer.from(`${type}${value}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'ascii');
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}
