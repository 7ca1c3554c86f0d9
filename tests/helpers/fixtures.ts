import path from 'node:path';

/**
 * The image fixtures, kept in the repository (copied from the project's shared fixtures) so that `npm test`
 * passes on any clone. tests/fixtures/images/SOURCES.md says where each comes from.
 */
export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/images');
export const fixture = (name: string) => path.join(FIXTURES, name);
