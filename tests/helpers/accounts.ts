/**
 * The accounts domain's rules as the integration tests call them, with their own database: the concern files of
 * src/lib/server/auth/ gathered under one name (`accounts.register`, `accounts.changePassword`…).
 */
export * from '../../src/lib/server/auth/registration';
export * from '../../src/lib/server/auth/profile';
export * from '../../src/lib/server/auth/password-links';
export * from '../../src/lib/server/auth/administration';
export { InvalidCredentialsError } from '../../src/lib/server/auth/sign-in';
export {
	findOrCreateMember,
	issuePasswordLink,
	passwordLinkFor,
	PASSWORD_LINK_LIFETIME_MS,
	recoverAdmin
} from '../../src/lib/server/auth/recovery';
