/**
 * The template file a scheduled runner's shared database is copied from, made without the disk:
 * `plugin.setup` runs on an in-memory database (`templateImage`, as sequential mode makes its
 * template), and its image is written to the RAM file system (`tempRoot(true)`) and put in WAL
 * mode there. A template made on disk (`DatabaseFiles`) cost every check 4-20 ms of wall time,
 * most of it `journal_mode = WAL` and removing the directory on a disk mounted with `discard`,
 * against about 1 ms here; the database the lanes share is the same either way (same schema and
 * rows, WAL), and it lives only until the shared database has copied it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HandlerPlugin } from '../../../handlers/plugin.ts';
import type { Fixture } from '../../../model/world.ts';
import { makeTempDir, removeTempDir, tempRoot } from '../../runtime/temp-dirs.ts';
import { openConnection, templateImage } from '../databases.ts';

/**
 * Calls `use` with the path of a WAL template file for `plugin` on `fixture`, and removes the
 * file when `use` returns or throws. Throws `E_HANDLER_SETUP` when the plugin's setup throws.
 */
export function withTemplateFile<T>(
  plugin: HandlerPlugin,
  fixture: Fixture,
  use: (path: string) => T,
): T {
  const image = templateImage(plugin, fixture);
  const dir = makeTempDir('template', tempRoot(true));
  try {
    const path = join(dir, 'template.sqlite');
    writeFileSync(path, image);
    // The journal mode is kept in the file; closing the only connection checkpoints the WAL.
    openConnection(path).close();
    return use(path);
  } finally {
    removeTempDir(dir);
  }
}
