import type { z } from 'zod';
import { moduleFilesFromForm, type moduleFormSchema } from '$lib/schemas/modules';
import { ValidationError } from '$lib/server/errors';
import { fieldErrors } from '$lib/server/http/api';

/**
 * The editor's fields as the modules' API takes them: an empty slug follows the title, the file fields ('' for none,
 * the attachments as JSON text) read with the API's own rules. A file field that is not one is refused by name.
 */
export function moduleFromForm(data: z.infer<typeof moduleFormSchema>) {
	const files = moduleFilesFromForm.safeParse(data);
	if (!files.success) {
		const errors: Record<string, string[]> = {};
		// The form's fields are the top-level ones: « attachments.0.title » is said of « attachments ».
		for (const [key, messages] of Object.entries(fieldErrors(files.error)))
			(errors[key.split('.')[0]!] ??= []).push(...messages);
		throw new ValidationError(errors);
	}
	return { ...data, slug: data.slug || undefined, ...files.data };
}
