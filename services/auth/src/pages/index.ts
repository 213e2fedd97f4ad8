export { createPageRenderer, type PageRenderer } from './renderer';
export { assetsRouter } from './assets';
export { ASSETS_PATH, assetFiles } from './asset-files';
export { hostedPageHeaders } from './headers';
export { samePath } from './contexts';
export * from './views';
export { type ErrorReason, sendErrorPage, sendLinkInvalid, sendPage } from './respond';
