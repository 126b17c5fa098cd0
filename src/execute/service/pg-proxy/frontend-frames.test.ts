/**
 * Frontend message framing, on bytes written by `pg-protocol`'s own serializer (what
 * node-postgres sends): frames come out whole whatever the chunking, the untyped phase ends at
 * the startup message and not at an SSLRequest, and Parse/Bind/Query bodies read back as written.
 */
import { serialize } from 'pg-protocol';
import { describe, expect, it } from 'vitest';
import {
  bindMessage,
  FrameError,
  type FrontendFrame,
  FrontendFramer,
  parseMessage,
  queryText,
  SSL_REQUEST_CODE,
  untypedCode,
} from './frontend-frames.ts';

const sslRequest = (() => {
  const bytes = Buffer.alloc(8);
  bytes.writeInt32BE(8, 0);
  bytes.writeInt32BE(SSL_REQUEST_CODE, 4);
  return bytes;
})();

const stream = Buffer.concat([
  sslRequest,
  serialize.startup({ user: 'u', database: 'd' }),
  serialize.query('SELECT 1'),
  serialize.parse({ name: 's1', text: 'SELECT $1::int, $2::text, $3::bytea', types: [] }),
  serialize.bind({ statement: 's1', values: ['7', null, Buffer.from([1, 2])] }),
  serialize.execute(),
  serialize.sync(),
  serialize.end(),
]);

function frames(chunks: readonly Buffer[]): FrontendFrame[] {
  const framer = new FrontendFramer();
  return chunks.flatMap((chunk) => framer.push(chunk));
}

describe('frontend framing', () => {
  it('cuts the same messages from one chunk and from single bytes', () => {
    const whole = frames([stream]);
    const bytewise = frames([...stream].map((b) => Buffer.from([b])));
    expect(whole.map((f) => f.type)).toEqual(['', '', 'Q', 'P', 'B', 'E', 'S', 'X']);
    expect(bytewise.map((f) => [f.type, f.bytes.toString('hex')])).toEqual(
      whole.map((f) => [f.type, f.bytes.toString('hex')]),
    );
    expect(Buffer.concat(whole.map((f) => f.bytes))).toEqual(stream);
    expect(untypedCode(whole[0] as FrontendFrame)).toBe(SSL_REQUEST_CODE);
    expect(untypedCode(whole[1] as FrontendFrame)).toBe(196608);
  });

  it('reads the SQL and bound values back', () => {
    const [, , query, parse, bind] = frames([stream]) as FrontendFrame[];
    expect(queryText(query as FrontendFrame)).toBe('SELECT 1');
    expect(parseMessage(parse as FrontendFrame)).toEqual({
      name: 's1',
      text: 'SELECT $1::int, $2::text, $3::bytea',
    });
    // node-postgres sends a Buffer as a binary parameter, a string (what it makes of a value) as text.
    expect(bindMessage(bind as FrontendFrame)).toEqual({
      statement: 's1',
      values: ['7', null, Buffer.from([1, 2])],
    });
  });

  it('refuses a length no PostgreSQL message can have', () => {
    const broken = Buffer.from([0x51, 0, 0, 0, 2]);
    const framer = new FrontendFramer();
    framer.untyped = false;
    expect(() => framer.push(broken)).toThrow(FrameError);
  });
});
