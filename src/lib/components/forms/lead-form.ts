import type { SuperValidated } from 'sveltekit-superforms';

/** What a page hands a lead form: the superform's first data, and the number offered once the lead is sent. */
export type LeadFormProps<T extends Record<string, unknown>> = {
	data: SuperValidated<T, App.Superforms.Message>;
	/** Offered in the confirmation: the number of whoever answers this form. */
	phone: string;
	phoneHref: string;
};
