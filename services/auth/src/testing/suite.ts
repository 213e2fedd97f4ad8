/** The describe-wide service lifecycle every service's tests share (started before the tests, stopped after). */
export { startedForSuite } from '@sesame/testing/suite';
