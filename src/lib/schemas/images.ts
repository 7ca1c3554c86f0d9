/** What an upload reports (CONTRACT §3, `stats`): shared by the server pipeline and the admin page. */
export interface UploadStats {
	sizeBefore: number;
	sizeAfter: number;
	quality: number;
	width: number;
	height: number;
	inputFormat: string;
	/** False when even quality 50 is over 1 MB: the image is kept, and the admin is told. */
	targetMet: boolean;
}
