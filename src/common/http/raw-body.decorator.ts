import { SetMetadata } from '@nestjs/common';

export const RAW_BODY_KEY = 'raw-body';

/** The route reads its body itself (model uploads): no JSON content-type check. */
export const RawBody = () => SetMetadata(RAW_BODY_KEY, true);
