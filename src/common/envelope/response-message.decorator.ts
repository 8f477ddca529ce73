import { SetMetadata } from '@nestjs/common';

export const RESPONSE_MESSAGE_KEY = 'response-message';

/** The envelope `message` of a route's success answer ("User logged in"). */
export const ResponseMessage = (message: string) => SetMetadata(RESPONSE_MESSAGE_KEY, message);
