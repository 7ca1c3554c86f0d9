/**
 * The host and the consumer mediator both sample sites name in their legal notice (LCEN art. 6; Code de la
 * consommation L.612-1): one record each, so that a change of address reaches both. A business that deploys
 * Atelier names its own in its company file.
 */
export const ovhHost = {
	name: 'OVH SAS',
	address: '2 rue Kellermann, 59100 Roubaix, France',
	phone: '1007',
	website: 'https://www.ovhcloud.com'
};

export const cm2cMediator = {
	name: 'CM2C — Centre de la médiation de la consommation de conciliateurs de justice',
	address: '49 rue de Ponthieu, 75008 Paris',
	website: 'https://www.cm2c.net'
};
