import { contractMongo } from '@sesame/mongo/testing';
import { adminsContract } from './contract';
import { mongoAdmins } from './mongo';

adminsContract('mongo', contractMongo('mgmt-admins-contract', mongoAdmins));
