/**
 * Memberships: Stripe's events applied once, the access rule to the courses, and the member's self-service —
 * the domain's whole public surface, bound to the application's services (app.ts).
 */
import { appDeps } from '../app';
import type { Actor } from '../audit';
import * as courses from '../courses';
import { ForbiddenError, NotFoundError } from '../errors';
import { isValidObjectPath, mediaAnswer, type MediaAnswer, type MediaRequest } from '../storage';
import * as service from './service';
import type { MembershipDeps } from './service';
import type { Membership } from './queries';

function deps(): MembershipDeps {
	const { db, mail, config, payments } = appDeps();
	return { db, mail, adminEmail: config.adminEmail, origin: config.origin, payments };
}

export const receiveWebhook = (rawBody: string, signature: string | null) =>
	service.receiveWebhook(deps(), rawBody, signature);

/**
 * What a user may do with the courses, and the membership it comes from (for the dashboard). A session's user
 * carries its latest membership already (read with the session): no query then.
 */
export async function accessOf(user: {
	id: string;
	isAdmin: boolean;
	membership?: Pick<Membership, 'status' | 'currentPeriodEnd' | 'stripeCustomerId'> | null;
}) {
	const membership =
		user.membership !== undefined
			? user.membership
			: ((await service.membershipOf(appDeps().db, user.id)) ?? null);
	return { access: service.courseAccess(user, membership), membership };
}
/**
 * A file of the courses for `user`: the one decision the server entry (http/course-media.ts) and the SvelteKit
 * route (/cours/media/…) both apply. The member's access first; then, under `course/`, the module's own rules (a
 * lesson's video, captions, poster, worksheets: courses.mediaAnswerOf); elsewhere, an image of a module's
 * Markdown from the private bucket. Refused with a typed error: 403 without access, 404 for no such file.
 */
export async function courseFile(
	user: Parameters<typeof accessOf>[0],
	request: MediaRequest,
	objectPath: string
): Promise<MediaAnswer> {
	const { access } = await accessOf(user);
	if (!access.allowed) throw new ForbiddenError('Les fichiers des cours sont réservés aux membres.');
	if (objectPath.startsWith('course/')) return courses.mediaAnswerOf(request, objectPath, user);
	const answer = isValidObjectPath(objectPath)
		? await mediaAnswer(request, appDeps().storage, objectPath, { cacheControl: 'private, max-age=3600' })
		: null;
	if (!answer) throw new NotFoundError('Image introuvable.');
	return answer;
}

export const billingPortalUrl = (userId: string, returnUrl: string) =>
	service.billingPortalUrl(deps(), userId, returnUrl);
export const deleteAccount = (who: { userId: string; sessionId: string }, password: string) =>
	service.deleteAccount(deps(), who, password);
/** An admin deletes someone's account (the route has asked for a recent re-authentication). */
export const deleteAccountAsAdmin = (targetId: string, admin: Actor) =>
	service.deleteAccountAsAdmin(deps(), targetId, admin);
export const paymentsOn = () => appDeps().payments !== null;

export { courseAccess, type CourseAccess } from './service';
