/** The service's own state, for operations and for every page: whether its database answers, which site it is. */
import { appDeps } from '../app';
import { config } from '../config';
import { isHealthy } from '../db';

export const databaseAnswers = () => isHealthy(appDeps().db);

/** CONTRACT §2 `SITE_MODE`: which pages exist (src/lib/pages/registry.ts). */
export const siteMode = () => config.siteMode;

/** The site's public address (ORIGIN), for absolute links. */
export const origin = () => config.origin;
