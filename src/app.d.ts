// See https://svelte.dev/docs/kit/types#app.d.ts
import type { ActiveSession, SessionUser } from '$lib/server/auth/session';

declare global {
	/** True in a test build only (scripts/build.mjs --tests): config.ts reads the test waits then. */
	const __ATELIER_TEST_BUILD__: boolean;
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
