/** Stable message keys of the errors this library raises (the gateway's error table uses them). */
export const AuthErrorKey = {
  unauthorized: "auth.error.unauthorized",
  forbidden: "auth.error.forbidden",
  noRole: "auth.error.noRole",
  totpRequired: "auth.error.totpRequired",
  totpInvalid: "auth.error.totpInvalid",
  totpUnavailable: "auth.error.totpUnavailable",
  /** Too many wrong passwords or TOTP codes for the account: 429 with Retry-After until the lock ends. */
  tooManyAttempts: "auth.error.tooManyAttempts",
  /** More password checks waiting than the service takes (503 with Retry-After): retry shortly. */
  busy: "auth.error.busy",
  captchaRequired: "auth.error.captchaRequired",
  captchaInvalid: "auth.error.captchaInvalid",
  noAuthContext: "auth.error.noAuthContext",
  customerRestricted: "auth.error.customerRestricted",
  customerExpired: "auth.error.customerExpired",
  customerDeleted: "auth.error.customerDeleted",
  userDeleted: "auth.error.userDeleted",
  tokenOutdated: "auth.error.tokenOutdated",
  twoFactorSetupRequired: "user.error.twoFactorSetupRequired",
  customerNotOwned: "customer.error.notOwned",
  customerIdRequired: "customer.error.customerIdRequired",
  customerIdInvalid: "customer.error.customerIdInvalid",
} as const;
