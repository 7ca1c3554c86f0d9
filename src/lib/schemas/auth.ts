/** Forms of the accounts area, shared by the pages (superforms) and the JSON API. Client-safe. */
import { z } from 'zod';
import { dropInvalid } from './query';
import { lineText } from './text';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

export const emailField = lineText('Indiquez votre adresse e-mail.')
	.trim()
	.toLowerCase()
	// Left empty, the field says what it wants; "invalide" is for what was typed.
	.min(1, 'Indiquez votre adresse e-mail.')
	.max(254, 'Adresse e-mail trop longue.')
	.pipe(z.email('Adresse e-mail invalide.'));

export const nameField = lineText('Indiquez votre nom.')
	.trim()
	.min(1, 'Indiquez votre nom.')
	.max(100, 'Le nom doit contenir au plus 100 caractères.');

export const newPasswordField = lineText('Choisissez un mot de passe.')
	.min(PASSWORD_MIN, `Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères.`)
	.max(PASSWORD_MAX, `Le mot de passe doit contenir au plus ${PASSWORD_MAX} caractères.`);

const anyPassword = lineText('Indiquez votre mot de passe.')
	.min(1, 'Indiquez votre mot de passe.')
	.max(1024, 'Mot de passe trop long.');

export const loginSchema = z.object({ email: emailField, password: anyPassword });
export const registerSchema = z.object({ name: nameField, email: emailField, password: newPasswordField });
export const setupAdminSchema = registerSchema;
export const nameChangeSchema = z.object({ name: nameField });
export const passwordChangeSchema = z.object({
	currentPassword: lineText().min(1, 'Indiquez votre mot de passe actuel.').max(1024),
	newPassword: newPasswordField
});

/** A code from the authenticator app (6 digits) or a recovery code (`k7qm-2xvd-9hte`), as typed. */
export const secondFactorCodeField = lineText('Indiquez le code.')
	.trim()
	.min(1, 'Indiquez le code affiché par votre application, ou un code de secours.')
	.max(32, 'Ce code est trop long.');
export const secondFactorSchema = z.object({ code: secondFactorCodeField });

/** Proving it again before a sensitive admin action: the password, or a code when the account has a second factor. */
export const reauthenticationSchema = z.object({
	secret: lineText('Indiquez-le.').min(1, 'Indiquez votre mot de passe ou votre code.').max(1024)
});
/** The users list's actions on another account. */
export const userIdSchema = z.object({ id: z.uuid('Compte inconnu.') });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;

/** `/mot-de-passe/{token}`: the new password, same rules as registration. */
export const setPasswordSchema = z.object({ password: newPasswordField });
/** `/mot-de-passe-oublie` and `/login/navigateur`: the account's address, to send it a link. */
export const resetRequestSchema = z.object({ email: emailField });
export type ResetRequestInput = z.infer<typeof resetRequestSchema>;
/** `/profil?/delete`: the password confirms who asks. */
export const deleteAccountSchema = z.object({ password: anyPassword });

/** "Déconnecter" on one of /profil's sessions: the handle the page was given for it. */
export const sessionHandleSchema = z.object({
	handle: z.string().regex(/^[0-9a-f]{32}$/, 'Session inconnue.')
});

/** "Changer d’adresse e-mail": the new address, and the password to prove the account is yours. */
export const emailChangeSchema = z.object({
	newEmail: emailField,
	// Not `password`: the profile's other forms have theirs, and field ids must be unique on the page.
	emailPassword: lineText('Indiquez votre mot de passe.').min(1, 'Indiquez votre mot de passe.').max(1024)
});

/** The admin's users list, as its query string spells it (?q=…&role=admin&page=2); invalid values dropped. */
export const usersQuerySchema = z.object({
	q: dropInvalid(lineText().trim().max(100)),
	role: dropInvalid(z.enum(['admin', 'member'])),
	page: dropInvalid(z.coerce.number().int().min(1).max(100_000))
});
