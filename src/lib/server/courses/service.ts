/**
 * The course's rules on a given database (the index binds them to the app's): one concern a file — modules.ts
 * (the admins' modules and their files), progress.ts (order, locks, what is done), lesson.ts (a module's page),
 * quizzes.ts, settings.ts, media.ts (a lesson's media and the editor's files).
 */
export {
	courseFilesTotal,
	courseValuesOf,
	createModule,
	deleteModule,
	getModule,
	listModules,
	moveModule,
	purgeUnusedCourseFiles,
	reorderModules,
	updateModule
} from './modules';
export {
	ModuleLockedError,
	PositioningRequiredError,
	completeModule,
	progressOf,
	undoModule,
	videoPositionsOf,
	type ModuleState,
	type Neighbour,
	type Progress
} from './progress';
export { modulePage } from './lesson';
export { QUIZ_ATTEMPT_LIMIT, answerQuiz, quizAnswersOf, type QuizPage } from './quizzes';
export { courseSettingsOf, updateCourseSettings } from './settings';
export {
	courseMedia,
	editorFilesOf,
	saveVideoPosition,
	type EditorFile,
	type EditorFiles,
	type ModuleMedia
} from './media';
