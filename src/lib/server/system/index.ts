/** The service's own state, for operations: whether its database answers (GET /healthz). */
import { appDeps } from '../app';
import { isHealthy } from '../db';

export const databaseAnswers = () => isHealthy(appDeps().db);
