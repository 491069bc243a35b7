"""The public fairness chain (DESIGN.md "Fairness", issue #25): its head and its entries,
paged, open to anyone (no account needed), so anyone can mirror the chain and check it
(tools/verify_fairness_chain.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from integrity.chain_selectors import chain_entries, chain_head, entry_json


class FairnessEntrySerializer(serializers.Serializer):
    """One link: entry_hash = SHA-256 of
    "{index}|{hand_id}|{table_id}|{at}|{commitment}|{previous_hash}" (UTF-8, hex)."""

    index = serializers.IntegerField()
    hand_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    at = serializers.CharField(help_text="The deal's time, UTC ISO 8601, exactly as hashed.")
    commitment = serializers.CharField(help_text="The hand's deck commitment (SHA-256 hex).")
    previous_hash = serializers.CharField(help_text="The entry before's hash; 64 zeros first.")
    entry_hash = serializers.CharField()


class ChainHeadSerializer(serializers.Serializer):
    length = serializers.IntegerField(help_text="Entries in the chain.")
    head_hash = serializers.CharField(help_text="The last entry's hash (64 zeros when empty).")
    head = FairnessEntrySerializer(allow_null=True)


class ChainStartSerializer(serializers.Serializer):
    start = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1)


class ChainPagination(PageNumberPagination):
    page_size = 500
    page_size_query_param = "page_size"
    max_page_size = 1000


class FairnessChainHead(APIView):
    """The chain's head: its length and last entry."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(responses=ChainHeadSerializer)
    def get(self, request: Request) -> Response:
        head = chain_head()
        return Response(
            ChainHeadSerializer(
                {
                    "length": head.length,
                    "head_hash": head.head_hash,
                    "head": None if head.head is None else entry_json(head.head),
                }
            ).data
        )


class FairnessChainEntries(generics.ListAPIView):
    """The chain's entries in order, paged (`page`, `page_size` up to 1000); `start` begins
    at that index."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    serializer_class = FairnessEntrySerializer
    pagination_class = ChainPagination
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return chain_entries()
        query = ChainStartSerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return chain_entries(start=query.validated_data.get("start", 0))

    @extend_schema(parameters=[ChainStartSerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
