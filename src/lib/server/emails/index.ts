/** The e-mails the service sends, as the admin previews them (/admin/emails): templates with sample data. */
export {
	MAIL_PREVIEWS as previews,
	mailPreview as previewOf,
	type MailPreview
} from '../mail/templates/catalog';
