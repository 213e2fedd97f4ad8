export { commitsInLog } from './commits-in-log';
export { queryPlan, type TempEngines, tempEngines } from './temp-engines';
