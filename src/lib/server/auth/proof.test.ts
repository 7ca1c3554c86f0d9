import { describe, expect, it } from 'vitest';
import { assertProof, proofOf, type SignInProof } from './proof';

const user = { id: 'u1', email: 'a@exemple.fr', name: 'A', isAdmin: true };

describe('a session only from a proof', () => {
	it('takes a proof this module made', () => {
		const proof = proofOf(user, 'password');
		expect(() => assertProof(proof)).not.toThrow();
		expect(proof.by).toBe('password');
		expect(Object.isFrozen(proof)).toBe(true);
	});

	it('refuses a look-alike made by a cast, and a proof edited after the fact', () => {
		const forged = { user, by: 'second-factor' } as unknown as SignInProof;
		expect(() => assertProof(forged)).toThrow(/proof made by the auth domain/);
		const proof = proofOf(user, 'link');
		expect(() => Object.assign(proof, { by: 'second-factor' })).toThrow(TypeError);
	});
});
