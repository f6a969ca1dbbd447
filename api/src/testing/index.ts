export { createTestContext, TEST_ORIGIN, type TestContext } from './context.js';
export { TestClient, type TestResponse } from './http-client.js';
export type { ProvidedServices } from './services.js';
export { createVehicle, PASSWORD, registerUser, uniqueEmail } from './factories.js';
