// See https://svelte.dev/docs/kit/types#app.d.ts
import type { ActiveSession, SessionUser } from '$lib/server/auth/session';

declare global {
	namespace App {
		interface Error {
			message: string;
			/** Quoted to support so that the logged error can be found. */
			id?: string;
		}
		interface Locals {
			user: SessionUser | null;
			session: ActiveSession | null;
		}
		namespace Superforms {
			type Message = { type: 'success' | 'error'; text: string };
		}
		// interface PageData {}
		// interface PageState {}
		// interface Platform {}
	}
}

export {};
