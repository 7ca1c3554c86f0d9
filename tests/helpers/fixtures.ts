import path from 'node:path';

/** The shared image fixtures (../shared/fixtures/images beside the repository). */
export const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/images');
export const fixture = (name: string) => path.join(FIXTURES, name);
