// Kafka topic names; the version in the name is the version of the message contract in proto/sesame/events.
export const topics = {
  flowEvents: 'sesame.flow-events.v1',
  adminEvents: 'sesame.admin-events.v1',
  cibaOutcomes: 'sesame.ciba-outcomes.v1',
  logoutNotices: 'sesame.logout-notices.v1',
  flowEventsDeadLetter: 'sesame.flow-events.v1.dlq',
  adminEventsDeadLetter: 'sesame.admin-events.v1.dlq',
} as const;
