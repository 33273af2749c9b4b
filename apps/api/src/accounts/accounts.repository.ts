import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../database/prisma.service';
import { UsernameTakenError } from '../common/errors';

export interface AccountRecord {
  id: string;
  username: string;
  createdAt: Date;
}

export interface AccountCredentials extends AccountRecord {
  passwordHash: string;
}

/** The accounts' statements, each within the database deadline (PrismaService.bounded). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(
    username: string,
    usernameKey: string,
    passwordHash: string,
  ): Promise<AccountRecord> {
    try {
      return await this.prisma.bounded(
        this.prisma.account.create({
          data: { username, usernameKey, passwordHash },
          select: { id: true, username: true, createdAt: true },
        }),
      );
    } catch (error) {
      // The unique index decides races between two sign-ups for one name.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new UsernameTakenError();
      }
      throw error;
    }
  }

  findCredentials(usernameKey: string): Promise<AccountCredentials | null> {
    return this.prisma.bounded(
      this.prisma.account.findUnique({
        where: { usernameKey },
        select: { id: true, username: true, createdAt: true, passwordHash: true },
      }),
    );
  }

  /** Stores a new token and drops the account's expired ones, so the table does not grow forever. */
  async storeAccessToken(accountId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.prisma.bounded(
      this.prisma.$transaction([
        this.prisma.accessToken.deleteMany({
          where: { accountId, expiresAt: { lte: new Date() } },
        }),
        this.prisma.accessToken.create({ data: { tokenHash, accountId, expiresAt } }),
      ]),
    );
  }

  async findByAccessToken(
    tokenHash: string,
    now: Date,
  ): Promise<(AccountRecord & { tokenExpiresAt: Date }) | null> {
    const token = await this.prisma.bounded(
      this.prisma.accessToken.findFirst({
        where: { tokenHash, expiresAt: { gt: now } },
        select: {
          expiresAt: true,
          account: { select: { id: true, username: true, createdAt: true } },
        },
      }),
    );
    return token && { ...token.account, tokenExpiresAt: token.expiresAt };
  }
}
