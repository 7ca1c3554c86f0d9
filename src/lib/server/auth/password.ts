import { hash } from '@node-rs/argon2';
// Bundled as text by Vite: the most common passwords of 10+ characters, lower-cased (the zxcvbn-ts "common"
// dictionary, plus French favourites). Shorter ones are refused by the length rule anyway.
import commonPasswordsText from './common-passwords.txt?raw';

/** OWASP's argon2id baseline; set explicitly so that a library default change cannot weaken it. */
const ARGON2ID = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

import { PASSWORD_MAX, PASSWORD_MIN } from '$lib/schemas/auth';
import { ValidationError } from '../errors';
import { inHashingSlot } from './hashing-slots';

/** A new password's hash (argon2id); checking one is password-check.ts's, inside the sign-in's spent attempt. */
export function hashPassword(password: string): Promise<string> {
	return inHashingSlot(() => hash(password, ARGON2ID));
}

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
	common ??= new Set(commonPasswordsText.split('\n').filter(Boolean));
	return common.has(password.toLowerCase());
}

/** French messages for a password that breaks the policy, or an empty list. */
export function passwordProblems(password: string): string[] {
	if (password.length < PASSWORD_MIN)
		return [`Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères.`];
	if (password.length > PASSWORD_MAX)
		return [`Le mot de passe doit contenir au plus ${PASSWORD_MAX} caractères.`];
	if (isCommonPassword(password)) return ['Ce mot de passe est trop courant : choisissez-en un autre.'];
	return [];
}

/** Refuses a new password that breaks the rules, naming the form's field. */
export function assertPasswordPolicy(password: string, field = 'password') {
	const problems = passwordProblems(password);
	if (problems.length) throw new ValidationError({ [field]: problems });
}
