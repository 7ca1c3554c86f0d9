/**
 * The e-mails the service sends, as the admin previews them (/admin/emails): each template with sample data. The
 * one part of mail/ that routes may import (eslint.config.js): it sends nothing and reads no configuration.
 */
export { MAIL_PREVIEWS as previews, mailPreview as previewOf, type MailPreview } from './templates/catalog';
