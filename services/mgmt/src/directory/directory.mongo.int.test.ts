import { contractMongo } from '@sesame/mongo/testing';
import { directoryContract } from './directory.contract';
import { mongoDirectory } from './directory.mongo';

directoryContract('mongo', contractMongo('mgmt-directory-contract', mongoDirectory));
