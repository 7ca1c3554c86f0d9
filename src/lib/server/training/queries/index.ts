/**
 * The training domain's SQL, one file a concern: the threads between members and the trainer, the satisfaction
 * survey, and — as a reporting domain — what the programme sheet's figures, the certificat de réalisation and the
 * proof file read of the course's tables (modules, progress, quizzes, positions, sign-ins, positioning), which it
 * never writes.
 */
export * from './threads';
export * from './satisfaction';
export * from './record';
