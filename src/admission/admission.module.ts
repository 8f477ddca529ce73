import { Global, Module } from '@nestjs/common';
import { RecognisedApiTokens } from './admission-keys.js';

/** What the pipeline tells admission (configureApp installs admission itself). */
@Global()
@Module({ providers: [RecognisedApiTokens], exports: [RecognisedApiTokens] })
export class AdmissionModule {}
