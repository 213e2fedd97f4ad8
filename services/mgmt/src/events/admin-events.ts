import type { EventPublisher } from '@sesame/events';
import { type Clock, newId } from '@sesame/platform';
import { events, topics } from '@sesame/proto';

/**
 * Activity types of spec 2.5 this service produces, plus its own for changes the spec's list does not name
 * (tenant creation and removal, signing-key rotation, an administrator's role change, an invitation voided, a
 * personal API token made or revoked, a person removed from an application or the tenant), in the same shape.
 */
export const adminActivity = {
  createApplication: 'administrator_create_application',
  updateApplication: 'administrator_update_application',
  removeApplication: 'administrator_remove_application',
  createApiCredential: 'administrator_create_api_credential',
  revokeApiCredential: 'administrator_revoke_api_credential',
  blockUserDevice: 'administrator_block_user_device',
  exportEventData: 'administrator_export_event_data',
  updateGeneralSettings: 'administrator_update_general_settings',
  createTenant: 'administrator_create_tenant',
  removeTenant: 'administrator_remove_tenant',
  rotateKeys: 'administrator_rotate_keys',
  createRiskRule: 'administrator_create_risk_rule',
  updateRiskRule: 'administrator_update_risk_rule',
  removeRiskRule: 'administrator_remove_risk_rule',
  tenantInvitation: 'administrator_tenant_invitation',
  /** Ours: an invitation voided before use (cancelled by an Owner, replaced, its invitee or inviter removed). */
  cancelInvitation: 'administrator_cancel_invitation',
  invitationApproved: 'administrator_tenant_invitation_status_approved',
  expiredInvitationConsumption: 'expired_invitation_consumption',
  removeAdminAccount: 'administrator_remove_admin_account',
  updateAdminRole: 'administrator_update_admin_role',
  enterTenant: 'administrator_enter_tenant',
  leaveTenant: 'administrator_leave_tenant',
  updateBrandingAuthentication: 'administrator_update_branding_authentication',
  updateBrandingEmailTemplate: 'administrator_update_branding_email_template',
  /** data: tokenId, name, email (whose token), expiresAt. */
  createApiToken: 'administrator_create_api_token',
  /** data: tokenId, name, email (whose token). */
  revokeApiToken: 'administrator_revoke_api_token',
  /** data: userId, scope (tenant or app), appId (scope app only). */
  removeUser: 'administrator_remove_user',
  /** Ours (issue 38): data: email (the typed address, lower-case), erased (how many sign-in records). */
  eraseAttempts: 'administrator_erase_attempts',
  /** data: userId, endedSessions, notifiedApps (client_ids sent a back-channel logout). */
  signOutUserEverywhere: 'administrator_sign_out_user_everywhere',
  /** data: userId, endedSessions. */
  disableUser: 'administrator_disable_user',
  /** data: userId. */
  enableUser: 'administrator_enable_user',
  /** Ours (issue 38). data: userId, credentialId. */
  removeUserPasskey: 'administrator_remove_user_passkey',
  /** Ours (issue 38). data: userId. */
  removeUserPhoneNumber: 'administrator_remove_user_phone_number',
  /** Ours (issue 38). data: email, appId, flowId (the registration link sent). */
  addPerson: 'administrator_add_person',
} as const;
export type AdminActivityType = (typeof adminActivity)[keyof typeof adminActivity];

/** Who made an admin call: recorded in every admin event (spec 2.5). */
export interface AdminContext {
  adminEmail: string;
  clientIp: string;
  sessionId: string;
}

/** Publishes one admin event as the caller of the current admin call. */
export type Emit = (
  tenantId: string,
  activityType: AdminActivityType,
  data: Record<string, unknown>,
) => Promise<void>;

/** What the admin email of events caused by the bootstrap key says: never a person's name. */
export const BOOTSTRAP_ADMIN = 'bootstrap-key';

/**
 * What the admin email of events caused through the management API says: its caller is API credentials, not
 * a person; the sessionId is the credentialsId.
 */
export const API_CREDENTIALS_ADMIN = 'api-credentials';

/** tenantId of platform-wide admin events (keys rotate): no tenant is called that (tenant ids are UUIDs). */
export const PLATFORM_TENANT_ID = '*';

export interface AdminEventPublisher {
  /** Publishes one admin event on sesame.admin-events.v1, keyed by tenant; returns it. */
  publish(
    admin: AdminContext,
    tenantId: string,
    activityType: AdminActivityType,
    data: Record<string, unknown>,
  ): Promise<events.AdminEvent>;
}

/**
 * Admin events go through the event bus publisher: on Kafka it has a durable outbox, so a broker outage
 * does not fail the admin call and does not lose the event.
 */
export function createAdminEventPublisher(publisher: EventPublisher, clock: Clock): AdminEventPublisher {
  return {
    async publish(admin, tenantId, activityType, data) {
      const event: events.AdminEvent = {
        id: newId(),
        activityType,
        adminEmail: admin.adminEmail,
        clientIp: admin.clientIp,
        sessionId: admin.sessionId,
        tenantId,
        timestampMs: clock.now(),
        data,
      };
      await publisher.publish(topics.adminEvents, [
        {
          key: tenantId,
          value: events.AdminEvent.encode(event).finish(),
          headers: { 'content-type': 'application/x-protobuf', 'activity-type': activityType },
        },
      ]);
      return event;
    },
  };
}
