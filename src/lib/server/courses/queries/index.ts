/**
 * The courses domain's SQL, one reader a file: the modules, their files, progress, quizzes, attestations and
 * reminders (modules.ts); the settings and the positioning at entry (settings.ts).
 */
export * from './modules';
export * from './settings';
