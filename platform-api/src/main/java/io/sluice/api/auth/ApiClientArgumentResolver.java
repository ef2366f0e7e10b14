package io.sluice.api.auth;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives an endpoint's {@link ApiClient} parameter the client {@link ApiKeyFilter} authenticated. It takes the place of
 * {@code @RequestAttribute(ApiClient.ATTRIBUTE)}, whose resolver made a data binder and ran a type conversion on every
 * call for an object that is already of the right type. A request without one fails as that annotation did (400).
 */
final class ApiClientArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == ApiClient.class;
    }

    @Override
    public ApiClient resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest, WebDataBinderFactory binderFactory) throws ServletRequestBindingException {
        if (webRequest.getAttribute(ApiClient.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST) instanceof ApiClient client) {
            return client;
        }
        throw new ServletRequestBindingException("no authenticated API client on this request");
    }
}
