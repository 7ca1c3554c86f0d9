/**
 * How the production server entry reaches the course's files (src/server/course-media.ts says why it answers them
 * itself): at start-up the app puts its answering function here (`exposeCourseMedia`, from the init hook, in the
 * platform mode); the entry reads it. Nothing of the app is imported here: the entry is bundled on its own.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { processWide } from '../../process-wide';
import type { MediaAnswer } from '../storage';

/** The route the request log names for these answers. */
export const COURSE_MEDIA_ROUTE = '/(members)/cours/media/[...path]';
/** The files of the course (a lesson's video, captions, poster, worksheets): what the entry answers. */
export const COURSE_MEDIA_PREFIX = '/cours/media/course/';

/**
 * The answer to a GET or HEAD of a course file, or null when the app's own route must answer instead: no valid
 * session (sign-in redirect), no access (403), no such file (404), a session to renew (a cookie to set).
 */
export type CourseMediaAnswer = (request: {
	method: string;
	objectPath: string;
	headers: IncomingHttpHeaders;
}) => Promise<MediaAnswer | null>;

const shared = processWide<CourseMediaAnswer>('course-media');

export function exposeCourseMedia(answer: CourseMediaAnswer): void {
	shared.set(answer);
}

export const exposedCourseMedia = (): CourseMediaAnswer | undefined => shared.get();
