/**
 * The header the gateway sets on every call it makes for a client: the client's address as the
 * gateway sees it (its peer, or what its trusted proxies report). Core counts password guesses per
 * username and address with it. The gateway never forwards a client's own header of that name;
 * internal callers that leave it out are counted together as one address.
 */
export const CLIENT_ADDRESS_HEADER = "x-client-address";
