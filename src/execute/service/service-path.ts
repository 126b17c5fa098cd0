/**
 * Whether a handler path names a service, apart from the loader of service descriptions: options,
 * replay and saving ask it of every handler, and the loader brings every protocol with it.
 */

/** Whether a handler path names a service description rather than a plugin module. */
export function isServicePath(path: string): boolean {
  return path.toLowerCase().endsWith('.json');
}
