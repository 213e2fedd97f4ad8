/** The action values of spec 2.4: what one step of a person's flow did. */
export const flowActions = [
  'ama_account_switching',
  'ama_consent',
  'auth_complete',
  'auth_native_complete',
  'auth_start_ama',
  'auth_start_native',
  'auth_start_oidc',
  'biometric_verification_success',
  'custodian_registration_completed',
  'custodian_registration_started',
  'desktop_account_switching',
  'desktop_biometrics_registered',
  'desktop_consent',
  'desktop_login_page',
  'desktop_transaction_page',
  'device_auth',
  'device_blocked_rejection',
  'device_re_register',
  'device_recovery_completed',
  'device_recovery_skipped',
  'device_recovery_started',
  'email_verification_failure',
  'email_verification_success',
  'enroll_native_complete',
  'enroll_start_native',
  'magic_link_expired',
  'new_device_registered',
  'new_qr_generated',
  'new_user_registered',
  'restricted_location',
  'rp_feedback_provided',
  'sms_verification_failure',
  'sms_verification_success',
  'user_access_code',
  'user_scan_qr',
  'user_send_sms',
  // Not in spec 2.4: an administrator disabled the person in the tenant (issue 38), so the sign-in is refused.
  'account_disabled_rejection',
] as const;
export type FlowAction = (typeof flowActions)[number];

/** Record-level enumerations of spec 2.4. */
export const authMethodTypes = ['fido2', 'email_otp', 'email_magic_link', 'device_only'] as const;
export const decisions = ['approve', 'use_mobile', 'reject', 'failed_unexpectedly'] as const;
export const desktopLoginDecisions = ['login', 'use_mobile'] as const;
export const errorCodes = ['Consent_screen_rejected', 'auth_failure'] as const;
export const flowTypes = ['authentication', 'transaction', 'ciba', 'enrollment'] as const;
export const flowStatuses = [
  'success',
  'failure',
  'suspected',
  'blocked',
  'enrollment',
  'incomplete',
] as const;
