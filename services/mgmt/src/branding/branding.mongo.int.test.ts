import { contractMongo } from '@sesame/mongo/testing';
import { brandingContract } from './branding.contract';
import { mongoBranding } from './mongo';

brandingContract('mongo', contractMongo('mgmt-branding-contract', mongoBranding));
